// The reference the unary bench holds svc-server against: grpc-go answering SensorService
// GetReadings for one sensor with fixed readings, the way a Go machine runtime serves it (the
// readings built once, the response per call, grpc-go's own HTTP/2 server). Built by the bench
// from Debian's grpc-go and Go protobuf in GOPATH mode (tools/bench/go-server.ts), with code
// generated from this project's own .proto files.
//
// Usage: go-server -sensor NAME -readings JSON. It listens on a free loopback port, prints
// {"h2":PORT} as one line, and serves until its standard input ends.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"net"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	commonpb "svc.bench/gen/common/v1"
	sensorpb "svc.bench/gen/component/sensor/v1"
)

// grpc-go's own codec writes map entries in Go's random map order; sorted by key they are the
// same bytes protobuf-es writes for the same readings, so every server in the bench answers
// byte for byte the same response (the bench checks it). Registered under grpc-go's name
// "proto", it replaces the default (this package's init runs after grpc-go's).
type sortedCodec struct{}

func (sortedCodec) Marshal(v interface{}) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(v.(proto.Message))
}

func (sortedCodec) Unmarshal(data []byte, v interface{}) error {
	return proto.Unmarshal(data, v.(proto.Message))
}

func (sortedCodec) Name() string { return "proto" }

type sensorServer struct {
	sensorpb.UnimplementedSensorServiceServer
	name     string
	readings map[string]*structpb.Value
}

func (s *sensorServer) GetReadings(_ context.Context, req *commonpb.GetReadingsRequest) (*commonpb.GetReadingsResponse, error) {
	if req.GetName() != s.name {
		return nil, status.Errorf(codes.NotFound, "no sensor named %q", req.GetName())
	}
	return &commonpb.GetReadingsResponse{Readings: s.readings}, nil
}

func main() {
	name := flag.String("sensor", "", "the sensor's name")
	readingsJSON := flag.String("readings", "{}", "its readings, as a JSON object")
	flag.Parse()
	if err := run(*name, *readingsJSON); err != nil {
		fmt.Fprintf(os.Stderr, "go-server: %v\n", err)
		os.Exit(1)
	}
}

func run(name string, readingsJSON string) error {
	if name == "" {
		return fmt.Errorf("-sensor: a sensor name is needed")
	}
	var raw map[string]interface{}
	if err := json.Unmarshal([]byte(readingsJSON), &raw); err != nil {
		return fmt.Errorf("-readings: must be a JSON object: %v", err)
	}
	readings, err := structpb.NewStruct(raw)
	if err != nil {
		return fmt.Errorf("-readings: %v", err)
	}
	encoding.RegisterCodec(sortedCodec{})

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := grpc.NewServer()
	sensorpb.RegisterSensorServiceServer(server, &sensorServer{name: name, readings: readings.GetFields()})
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	fmt.Printf("{\"h2\":%d}\n", listener.Addr().(*net.TCPAddr).Port)

	// The parent ends our standard input to stop us; a stop that hangs is cut after 2 s.
	_, _ = io.Copy(ioutil.Discard, os.Stdin)
	time.AfterFunc(2*time.Second, server.Stop)
	server.GracefulStop()
	if err := <-served; err != nil && err != grpc.ErrServerStopped {
		return err
	}
	return nil
}
