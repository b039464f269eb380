// Discovery's platform half, chosen by os.hpp: where toolkits and Python environments live (posix/ or
// windows/machine_layout.hpp).
#pragma once

#include "os.hpp"
#include CUSHIM_OS_MACHINE_LAYOUT
