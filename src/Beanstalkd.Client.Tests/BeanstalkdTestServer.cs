using IntegrationService;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// The tests' own beanstalkd, which the project's scripts start on TEST_BEANSTALKD_PORT (default: its tests' port in
/// infra/config/ports.txt). A missing server fails the tests that use it. Every test works in a tube of its own
/// (<see cref="NewTube"/>), so tests never see each other's jobs nor anyone else's.
/// </summary>
internal static class BeanstalkdTestServer
{
    private static readonly PortTable Ports = PortTable.OfThisCheckout() ?? throw new InvalidOperationException("infra/config/ports.txt not found above the test binaries");

    /// <summary>The port of the user's own server (infra/config/ports.txt): never the tests'.</summary>
    public static int UserPort => Ports.User("BEANSTALKD");

    public static int Port
    {
        get
        {
            var value = Environment.GetEnvironmentVariable("TEST_BEANSTALKD_PORT");
            var port = int.TryParse(value, out var parsed) ? parsed : Ports.Test("BEANSTALKD");
            if (port == UserPort)
            {
                throw new InvalidOperationException(
                    $"TEST_BEANSTALKD_PORT={port} is the port of the user's beanstalkd; the tests use their own instance.");
            }
            return port;
        }
    }

    /// <summary>A tube name no other test uses.</summary>
    public static string NewTube() => "t-" + Guid.NewGuid().ToString("N");

    /// <summary>Options for the test server and a fresh tube; a generous timeout, as tests share two cores.</summary>
    public static BeanstalkdClientOptions Options(string? tube = null, int port = 0) => new()
    {
        Host = "127.0.0.1",
        Port = port == 0 ? Port : port,
        Tube = tube ?? NewTube(),
        Timeout = TimeSpan.FromSeconds(5),
        ConnectTimeout = TimeSpan.FromSeconds(5),
    };

    /// <summary>A client of the test server in a fresh tube (or <paramref name="tube"/>).</summary>
    public static BeanstalkdClient Client(string? tube = null) => new(Options(tube));
}
