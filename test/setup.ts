import { Testing } from "cdktf";

// registers cdktf's matchers (toHaveResource, toHaveResourceWithProperties, toHaveDataSource…)
Testing.setupJest();
