#pragma once
#define NORMLAB_VERSION "0.1.0"
