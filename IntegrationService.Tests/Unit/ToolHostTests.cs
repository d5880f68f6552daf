using Microsoft.Extensions.Hosting;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The command-line tools (seed, fill-queue, settle) start a host with the storage registrations
/// alone, without the web API's: every service those registrations need must resolve there.
/// </summary>
public sealed class ToolHostTests
{
    [Fact]
    public void TheStorageRegistrationsResolveWithoutTheWebApi()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.AddStorage();
        builder.ConfigureContainer(new Microsoft.Extensions.DependencyInjection.DefaultServiceProviderFactory(new ServiceProviderOptions { ValidateOnBuild = true, ValidateScopes = true }));

        using var host = builder.Build(); // throws when a registration cannot be resolved

        Assert.NotEmpty(host.Services.GetServices<IHostedService>());
    }
}
