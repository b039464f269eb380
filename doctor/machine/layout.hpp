// Where toolkits and Python environments live and what their files say, for this platform (os.hpp).
#pragma once

#include "../os.hpp"
#include CUSHIM_DOCTOR_OS_LAYOUT
