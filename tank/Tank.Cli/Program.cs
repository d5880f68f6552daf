// Socket completions run inline on the epoll thread instead of hopping to the thread pool. The
// runner no longer uses async sockets (see Runner/Poller.cs); this still makes `tank serve` and the
// warm-up's in-process responder cheaper. It must be set before the first socket is created.
if (Environment.GetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS") is null)
    Environment.SetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1");
return Tank.Commands.TankCli.Run(args);
