// The one translation unit of the consumer that holds cushim's implementation: the exported
// cudnn*/cuda* stubs, which stand in for -lcudnn -lcudart.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
