/* Stand-in for EGL/eglext.h (README.md): the extension types cuda_egl_interop.h names. */
#ifndef __eglext_h_
#define __eglext_h_
typedef void* EGLImageKHR;
typedef void* EGLStreamKHR;
typedef void* EGLSyncKHR;
#endif
