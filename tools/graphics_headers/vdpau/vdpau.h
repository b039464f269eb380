/* Stand-in for VDPAU's vdpau/vdpau.h (README.md): the types cuda_vdpau_interop.h names. */
#ifndef _VDPAU_H
#define _VDPAU_H
#include <stdint.h>
typedef uint32_t VdpDevice;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef int VdpStatus; /* an enum in vdpau.h */
typedef VdpStatus VdpGetProcAddress(VdpDevice device, uint32_t function_id, void** function_pointer);
#endif
