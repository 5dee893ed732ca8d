#include "dbname.h"
/* placeholder: being written */
