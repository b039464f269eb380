// Discovery's platform half, chosen by os.hpp: how a framework's loader loads its CUDA library (posix/ or
// windows/framework_loader.hpp).
#pragma once

#include "os.hpp"
#include CUSHIM_OS_FRAMEWORK_LOADER
