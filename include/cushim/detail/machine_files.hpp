// Discovery's platform half, chosen by os.hpp: what discovery asks of the file system (posix/ or
// windows/machine_files.hpp).
#pragma once

#include "os.hpp"
#include CUSHIM_OS_MACHINE_FILES
