// Every import of a cuDNN found outside a framework (copied into a toolkit, on PATH, named by the
// build variables), located for this platform (os.hpp); checks.hpp names each one not found.
#pragma once

#include "../os.hpp"
#include CUSHIM_DOCTOR_OS_CUDNN_IMPORTS
