// Stand-in for CUDA runtime headers of version 10020: only the version macro matters here.
#pragma once
#define CUDART_VERSION 10020
