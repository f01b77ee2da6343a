// cel-judge: Karpenter's own verdict on kubelet CEL expressions, for `npm run e2e -- --stage cel-agreement`
// (scripts/e2e/cel-stage.cjs). Built by scripts/tools/build.sh (versions.txt row cel-judge) in a wrapper module
// that requires github.com/aws/karpenter-provider-aws v1.15.0; this file is copied into it, so the judge is
// exactly the controller's pkg/cel, not a copy of it.
//
// Reads one JSON object a line on stdin, {"expression": "...", "reserved": bool}, and writes one a line on stdout:
// {"quantity": bool, "compiles": bool, "error": "...", "results": [{"instanceType": ..., "value": n} | {"instanceType": ..., "error": ...}]}
//   - quantity (reserved only): the value parses as a Kubernetes quantity, which ResolveResourceMap passes through
//     unevaluated (resource.ParseQuantity, pkg/cel/environment.go); it is judged as an expression all the same;
//   - compiles: pkg/cel NewEnvironment().ValidateExpression (parse, type-check, result int or double);
//   - results: EvaluateExpression for each instance type below, then what the callers do with the value:
//     maxPods outside [0, math.MaxInt32] fails (pkg/providers/instancetype/types.go, "maxPods expression evaluated
//     to a value outside the valid range"); a reserved value below 0 fails (pkg/cel/environment.go
//     ResolveResourceMap, "result is negative"; types.go evaluateResourceExpressions, "evaluated to a negative value").
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"

	kubeletcel "github.com/aws/karpenter-provider-aws/pkg/cel"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The variables of real instance types as Karpenter builds them (pkg/providers/instancetype/types.go buildCELVars:
// vcpus = VCpuInfo.DefaultVCpus, memory_mib = MemoryInfo.SizeInMiB, default_enis = the default network card's
// MaximumNetworkInterfaces, ips_per_eni = Ipv4AddressesPerInterface, max_pods = ENILimitedPods for an AMI family
// with ENI-limited pod density (AL2023, the library's default) and no reserved ENIs: default_enis * (ips_per_eni - 1) + 2).
// EC2 DescribeInstanceTypes output as karpenter-provider-aws@v1.15.0 records it in pkg/fake/zz_generated.describe_instance_types.go
// (t4g.small :941-980, c6g.large :33-72, m5.large :405-444, t3.large :845-884, p5.48xlarge :655-720: its default card 0
// has 2 of the 64 interfaces), and for t3.nano (not in that file) pkg/providers/instancetype/zz_generated.vpclimits.go
// :20243 (2 interfaces, 2 addresses each) with the 2 vCPUs and 0.5 GiB of the EC2 instance type table.
var instanceTypes = []kubeletcel.InstanceTypeVars{
	vars("t3.nano", 2, 512, 2, 2),
	vars("t4g.small", 2, 2048, 3, 4),
	vars("c6g.large", 2, 4096, 3, 10),
	vars("m5.large", 2, 8192, 3, 10),
	vars("t3.large", 2, 8192, 3, 12),
	vars("p5.48xlarge", 192, 2097152, 2, 50),
}

func vars(name string, vcpus, memoryMiB, enis, ips int64) kubeletcel.InstanceTypeVars {
	return kubeletcel.InstanceTypeVars{
		VCPUs: vcpus, MemoryMiB: memoryMiB, DefaultENIs: enis, IPsPerENI: ips,
		MaxPods: enis*(ips-1) + 2, InstanceType: name,
	}
}

type request struct {
	Expression string `json:"expression"`
	Reserved   bool   `json:"reserved"`
}

type result struct {
	InstanceType string `json:"instanceType"`
	Value        *int64 `json:"value,omitempty"`
	Error        string `json:"error,omitempty"`
}

type verdict struct {
	Quantity bool     `json:"quantity,omitempty"`
	Compiles bool     `json:"compiles"`
	Error    string   `json:"error,omitempty"`
	Results  []result `json:"results"`
}

func judge(env *kubeletcel.CELEnvironment, req request) verdict {
	v := verdict{Results: []result{}}
	if req.Reserved {
		_, err := resource.ParseQuantity(req.Expression)
		v.Quantity = err == nil
	}
	if err := env.ValidateExpression(req.Expression); err != nil {
		v.Error = err.Error()
		return v
	}
	v.Compiles = true
	for _, it := range instanceTypes {
		r := result{InstanceType: it.InstanceType}
		n, err := evaluate(env, req.Expression, it)
		switch {
		case err != nil:
			r.Error = err.Error()
		case req.Reserved && n < 0:
			r.Error = fmt.Sprintf("kubelet resource expression evaluated to a negative value (%d)", n)
		case !req.Reserved && (n < 0 || n > math.MaxInt32):
			r.Error = fmt.Sprintf("maxPods expression evaluated to a value outside the valid range [0, %d] (%d)", math.MaxInt32, n)
		default:
			r.Value = &n
		}
		v.Results = append(v.Results, r)
	}
	return v
}

// evaluate is EvaluateExpression with a panic of cel-go reported as that evaluation's error (a judge that died
// would say nothing about the other expressions)
func evaluate(env *kubeletcel.CELEnvironment, expression string, it kubeletcel.InstanceTypeVars) (n int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return env.EvaluateExpression(expression, it)
}

func main() {
	env, err := kubeletcel.NewEnvironment()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "cel-judge: bad input line:", err)
			os.Exit(2)
		}
		if err := out.Encode(judge(env, req)); err != nil {
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
