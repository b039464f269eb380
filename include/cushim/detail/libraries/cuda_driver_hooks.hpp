// What only the CUDA driver API does (its record, tools/libraries.json, names each hook): a
// toolkit's link-time stub of libcuda is never the driver.
#pragma once

#include "../search/candidate_check.hpp"
#include "../search/descriptor.hpp"
#include "../load/driver.hpp"

namespace cushim {
namespace detail {
namespace {

namespace driver_hooks {

// The toolkit's stub answers every call with CUDA_ERROR_STUB_LIBRARY: never the driver.
inline outcome refuse_link_time_stub(candidate_check& c) {
  if (in_stubs_folder(c.path)) {
    c.detail = words::stub_in_stubs_folder();
  } else if (driver_cuda_version(c.handle) < 0) {
    c.detail = words::stub_by_answer(cuda_error_stub_library);
  } else {
    return outcome::loaded;
  }
  c.lib.link_time_stubs.push_back(c.path);  // the report's driver section lists them
  return outcome::not_the_library;
}

}  // namespace driver_hooks

}  // namespace
}  // namespace detail
}  // namespace cushim
