module shootout

go 1.27

toolchain go1.27.3

require (
	buf.build/go/hyperpb v0.1.3
	capnproto.org/go/capnp/v3 v3.1.0-alpha.1
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/apache/thrift v0.17.0
	github.com/bytedance/sonic v1.15.5
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/goccy/go-json v0.12.0
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/hamba/avro/v2 v2.31.0
	github.com/klauspost/compress v1.20.3
	github.com/mus-format/common-go v0.0.0-20251026152644-9f5ac6728d8a
	github.com/mus-format/mus-go v0.7.2
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tinylib/msgp v1.6.5
	github.com/vmihailenco/msgpack/v5 v5.4.1
	go.mongodb.org/mongo-driver/v2 v2.10.0
	golang.org/x/sys v0.39.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/colega/zeropool v0.0.0-20230505084239-6fb4a4f75381 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	github.com/timandy/routine v1.1.5 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/exp v0.0.0-20250813145105-42675adae3e6 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
