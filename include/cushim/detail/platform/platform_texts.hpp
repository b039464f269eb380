// The platform's words in explanations (texts.hpp of posix/ or windows/), for files outside detail/.
#pragma once

#include "os.hpp"
#include CUSHIM_OS_TEXTS
