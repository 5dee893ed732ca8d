#include "console.h"
/* placeholder: being written */
