// Socket completions run inline on the epoll thread instead of hopping to the thread pool: the runner's
// in-process warm-up responder is cheaper so. It must be set before the first socket is created.
if (Environment.GetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS") is null)
    Environment.SetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1");
return Lab.Commands.LabCli.Run(args);
