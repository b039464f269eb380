/* Stand-in for EGL/egl.h (README.md): the types cuda_egl_interop.h names (khrplatform.h's int32_t). */
#ifndef __egl_h_
#define __egl_h_
#include <stdint.h>
typedef int32_t EGLint;
#endif
