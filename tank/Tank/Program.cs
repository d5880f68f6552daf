// Socket completions run inline on the epoll thread instead of hopping to the thread pool:
// for a load generator that halves the cost per request (see SELF-OVERHEAD.md). It must be set
// before the first socket is created.
if (Environment.GetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS") is null)
    Environment.SetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1");
return Tank.Commands.Cli.Run(args);
