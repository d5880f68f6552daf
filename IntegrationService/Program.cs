using IntegrationService;
using IntegrationService.Seeding;

if (args.Length > 0 && args[0] == "seed")
{
    return await SeedCommand.RunAsync(args[1..]);
}
if (args.Length > 0 && args[0] == "fill-queue")
{
    return await FillQueueCommand.RunAsync(args[1..]);
}

var app = ServiceHost.Build(args);
await app.RunAsync();
return 0;
