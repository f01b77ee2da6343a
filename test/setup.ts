import { Testing } from "cdktf";
// the matchers' type declarations
import "cdktf/lib/testing/adapters/jest";
import * as cdktfStackTrace from "cdktf/lib/tokens/private/stack-trace";

// registers cdktf's matchers (toHaveResource, toHaveResourceWithProperties, toHaveDataSource…)
Testing.setupJest();

// cdktf records the full call stack of every token it creates (each attribute reference, each
// complex list), only to quote it if that token later fails to resolve. Under Jest every frame of
// that stack goes through Jest's source-map formatter: profiled, that was over half of the suite's
// CPU (karpenter.test.ts 5.3 s → 1.5 s without it). No test asserts on cdktf's creation stacks, and a
// token that fails to resolve still throws, only without the stack where it was made.
(cdktfStackTrace as { captureStackTrace: () => string[] }).captureStackTrace = () => [];
