// The status a library's functions return when they cannot reach it. Each library's descriptor
// file specialises fallback_status for its status type (docs/errors.md, "Error codes").
#pragma once

#include <type_traits>

namespace cushim {
namespace detail {
namespace {

// Specialised with: static constexpr R unavailable (the library cannot be used) and
// R missing (the loaded copy lacks the function).
template <class R>
struct fallback_status;

template <class R, class = void>
struct has_fallback_status : std::false_type {};
template <class R>
struct has_fallback_status<R, std::void_t<decltype(fallback_status<R>::unavailable)>> : std::true_type {};

}  // namespace
}  // namespace detail
}  // namespace cushim
