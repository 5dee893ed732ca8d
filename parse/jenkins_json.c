#include "jenkins.h"
/* placeholder: being written */
