#include "ini.h"
/* placeholder: being written */
