// Linux: a cuDNN's dependencies are found by the system loader's own search, from the process that
// loads it; the frameworks' and programs' loads work them out (framework_loader.hpp, programs.hpp).
#pragma once

#include "../../machine/context.hpp"
#include "../../machine/machine.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline void resolve_cudnn_imports(const discovery::context&, machine::cudnn_install&) {}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
