import { Testing } from "cdktf";
// the matchers' type declarations
import "cdktf/lib/testing/adapters/jest";

// registers cdktf's matchers (toHaveResource, toHaveResourceWithProperties, toHaveDataSource…)
Testing.setupJest();
