using IntegrationService.Items;
using IntegrationService.Storage;
using IntegrationService.Storage.Beanstalkd;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Tarantool;

public sealed class TarantoolRegistrationTests
{
    [Fact]
    public async Task AddTarantoolRegistersTheClientAndTheArchitecturesComposeBothEnginesFromItsStores()
    {
        await using var services = Build(new Dictionary<string, string?> { ["Tarantool:Port"] = "13999" });

        var architectures = services.GetServices<StorageArchitecture>().Where(a => a.Backends.Contains("tarantool")).ToDictionary(a => a.Name);
        Assert.Equal(["tarantool-memtx", "tarantool-vinyl"], architectures.Keys.Order());
        Assert.All(architectures.Values, a =>
        {
            Assert.IsType<TarantoolAuthorStore>(a.Authors);
            Assert.IsType<TarantoolItemStore>(a.Items);
            Assert.Contains("wal_mode=write", a.Durability);
            Assert.Equal(["tarantool"], a.Backends);
        });
        Assert.Contains(services.GetServices<IHostedService>(), s => s is TarantoolConnectionService);
        var checks = services.GetRequiredService<IOptions<HealthCheckServiceOptions>>().Value.Registrations;
        Assert.Contains(checks, c => c.Name == "tarantool" && c.Tags.Contains("ready") && c.FailureStatus == HealthStatus.Unhealthy);
        Assert.Contains(services.GetServices<IItemDataLoader>(), l => l is TarantoolItemDataLoader);
        Assert.Equal(13999, services.GetRequiredService<IOptions<TarantoolOptions>>().Value.Port);
    }

    [Fact]
    public void InvalidOptionsAreRejected()
    {
        using var services = Build(new Dictionary<string, string?> { ["Tarantool:RequestTimeoutMs"] = "0" });

        Assert.Throws<OptionsValidationException>(() => services.GetRequiredService<IOptions<TarantoolOptions>>().Value);
    }

    private static ServiceProvider Build(Dictionary<string, string?> settings)
    {
        var services = new ServiceCollection();
        // The endpoints of this checkout's servers (infra/config/ports.txt), as the service gets them, then the test's own.
        var endpoints = PortTableConfiguration.Settings(PortTable.OfThisCheckout() ?? throw new InvalidOperationException("infra/config/ports.txt not found"));
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(endpoints).AddInMemoryCollection(settings).Build();
        services.AddSingleton<IConfiguration>(configuration);
        services.AddLogging();
        services.AddTarantool();
        // The architectures are composed in one place from every technology's stores.
        services.AddPostgres(configuration);
        services.AddRedis(configuration);
        services.AddBeanstalkd();
        services.AddRabbitMq(configuration);
        services.AddNats(configuration);
        services.AddArchitectures(configuration);
        return services.BuildServiceProvider();
    }
}
