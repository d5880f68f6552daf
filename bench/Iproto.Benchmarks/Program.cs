using BenchmarkDotNet.Running;
using Iproto.Benchmarks;

BenchmarkSwitcher.FromAssembly(typeof(AuthorCodecBenchmarks).Assembly).Run(args);
