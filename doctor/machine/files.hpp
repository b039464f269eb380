// What the doctor asks of the file system beyond cushim's files.hpp, for this platform (os.hpp).
#pragma once

#include "../os.hpp"
#include CUSHIM_DOCTOR_OS_FILES
