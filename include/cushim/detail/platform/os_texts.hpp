// The platform's own words (texts.hpp of posix/ or windows/), for a file outside detail/ itself:
// os.hpp's names are relative to detail/.
#pragma once

#include "os.hpp"
#include CUSHIM_OS_TEXTS
