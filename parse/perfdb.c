#include "perfdb.h"
/* placeholder: being written */
