using IntegrationService;
using IntegrationService.Seeding;

// "seed …" and "fill-queue …" are tools; any other arguments configure the web host untouched.
if (ServiceCli.Handles(args))
{
    return await ServiceCli.RunAsync(args);
}

var app = ServiceHost.Build(args);
await app.RunAsync();
return 0;
