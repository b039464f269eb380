// How a framework's loader loads its CUDA library, for this platform (os.hpp).
#pragma once

#include "../os.hpp"
#include CUSHIM_DOCTOR_OS_FRAMEWORK_LOADER
