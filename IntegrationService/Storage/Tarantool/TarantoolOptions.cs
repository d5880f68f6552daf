using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Connection settings of the Tarantool client, bound from the "Tarantool" configuration section.</summary>
public sealed class TarantoolOptions
{
    /// <summary>Host name or address of the Tarantool server.</summary>
    [Required]
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>
    /// IPROTO port: the local server's of <c>script/services</c> from infra/config/ports.txt
    /// (<see cref="PortTableConfiguration"/>; <c>TARANTOOL_PORT</c> moves it), 3301 on the AWS database host.
    /// </summary>
    [Range(1, 65535, ErrorMessage = "Tarantool:Port is not set: Tarantool__Port in the environment or --Tarantool:Port=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public int Port { get; set; }

    /// <summary>User for chap-sha1 authentication; "guest" or empty skips authentication.</summary>
    public string User { get; set; } = "integration";

    public string Password { get; set; } = "integration";

    /// <summary>How long one request may wait for its answer before it fails with 503, in milliseconds.</summary>
    [Range(1, 600_000)]
    public int RequestTimeoutMs { get; set; } = 2000;

    /// <summary>Bound on connecting, reading the greeting and authenticating, in milliseconds.</summary>
    [Range(1, 600_000)]
    public int ConnectTimeoutMs { get; set; } = 2000;

    /// <summary>
    /// The first pause before reconnecting after the connection is lost or refused, in milliseconds; each
    /// further failed attempt doubles it (with ±20% jitter) up to <see cref="MaxReconnectDelayMs"/>.
    /// A successful connect starts over from this value.
    /// </summary>
    [Range(1, 600_000)]
    public int ReconnectDelayMs { get; set; } = 500;

    /// <summary>
    /// The server's <c>wal_mode</c> (none, write or fsync) as infra/config/tarantool/init.lua sets it
    /// (<c>TARANTOOL_WAL_MODE</c>, default write). The client does not apply it: it describes the
    /// server we are deployed against, and the durability statements of <c>GET /storages</c> are built
    /// from it. Set it when the server runs another mode.
    /// </summary>
    [RegularExpression("^(none|write|fsync)$")]
    public string WalMode { get; set; } = "write";

    /// <summary>The cap on the pause between reconnection attempts, in milliseconds.</summary>
    [Range(1, 600_000)]
    public int MaxReconnectDelayMs { get; set; } = 5000;

    /// <summary>
    /// After this long with nothing received the connection sends IPROTO_PING, in milliseconds; no answer
    /// within <see cref="RequestTimeoutMs"/> fails the connection (every waiting call at once) and reconnects.
    /// </summary>
    [Range(1, 600_000)]
    public int PingIntervalMs { get; set; } = 5000;
}
