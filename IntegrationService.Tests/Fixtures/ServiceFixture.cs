using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// The real service on Kestrel, on a free loopback port, talking to the tests' own real servers
/// (<see cref="TestServers"/>: script/test starts them under .data/test on their own ports), never
/// to the user's servers on the default ports.
/// </summary>
public class ServiceFixture : IAsyncLifetime
{
    private WebApplication? _app;

    public HttpClient Client { get; private set; } = null!;

    /// <summary>The service's container (its resolved options say which servers it talks to).</summary>
    public IServiceProvider Services => _app!.Services;

    public static JsonSerializerOptions Json { get; } = new(JsonSerializerDefaults.Web);

    /// <summary>Configuration a derived fixture adds (<c>--Section:Key=value</c>).</summary>
    protected virtual IEnumerable<string> ExtraArguments => [];

    public async Task InitializeAsync()
    {
        _app = ServiceHost.Build(["--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning", .. TestServers.ServiceArguments(), .. ExtraArguments]);
        await _app.StartAsync();
        var address = _app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.First();
        Client = new HttpClient { BaseAddress = new Uri(address), Timeout = TimeSpan.FromSeconds(30) };
        await TestDataSet.EnsureLoadedAsync(_app.Services);
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        if (_app is not null) await _app.DisposeAsync();
    }

    public async Task<T> ReadAsync<T>(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<T>(Json))!;
}
