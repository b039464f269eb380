// Picks the generated table of each library's major from the NVIDIA headers in use. Within a
// major, each table's own #if guards pick the functions of the release (docs/supported-headers.md,
// "Supported headers"); headers newer than a table's newest release compile with it. What picks which table,
// and the #error for headers cushim has none for, is generated from tools/libraries.json.
#pragma once

#include "../types/nvidia_headers.hpp"      // the NVIDIA headers whose versions pick the tables
#include "../../api/companion_headers.inc"  // those that come with them (diagnostics.hpp includes it first)
#include "../../api/table_versions.hpp"
#include "../../api/table_selection.inc"
