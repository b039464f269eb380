/* Stand-in for OpenGL's GL/gl.h (README.md): the types cuda_gl_interop.h names. */
#ifndef __gl_h_
#define __gl_h_
typedef unsigned int GLenum;
typedef unsigned int GLuint;
#endif
