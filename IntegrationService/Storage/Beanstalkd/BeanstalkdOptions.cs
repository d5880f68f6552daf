using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Beanstalkd;

/// <summary>Configuration section "Beanstalkd".</summary>
public sealed class BeanstalkdOptions
{
    [Required]
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>The port: the local server's from infra/config/ports.txt (<see cref="PortTableConfiguration"/>).</summary>
    [Range(1, 65535, ErrorMessage = "Beanstalkd:Port is not set: Beanstalkd__Port in the environment or --Beanstalkd:Port=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public int Port { get; set; }

    /// <summary>The tube the queue lives in.</summary>
    [Required]
    public string Tube { get; set; } = "default";

    /// <summary>Milliseconds one call may take before it counts as unavailable.</summary>
    [Range(10, 60_000)]
    public int TimeoutMs { get; set; } = 1000;

    /// <summary>
    /// The server's <c>-f</c> flag (infra/config/beanstalkd.conf): it fsyncs its binlog at most once
    /// every so many milliseconds, 0 meaning after every write. The client does not apply it: it
    /// describes the server we are deployed against, for the durability statement of <c>GET /storages</c>.
    /// </summary>
    [Range(0, 3_600_000)]
    public int FsyncIntervalMs { get; set; } = 1000;
}
