using IntegrationService;
using IntegrationService.Seeding;

// "seed …", "fill-queue …", "purge-queue …" and the like are tools (ServiceCli.Handles); any other arguments configure the web host untouched.
if (ServiceCli.Handles(args))
{
    return await ServiceCli.RunAsync(args);
}

var app = ServiceHost.Build(args);
await app.RunAsync();
return 0;
