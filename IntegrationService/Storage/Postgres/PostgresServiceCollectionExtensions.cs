using IntegrationService.Items;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

public static class PostgresServiceCollectionExtensions
{
    /// <summary>The server's name in health reports and architectures' dependencies.</summary>
    public const string BackendName = "postgres";

    /// <summary>
    /// The PostgreSQL data source (options from the "Postgres" section), its stores, location catalog,
    /// data loader, health check and schema initializer. The architectures using them are composed in
    /// <see cref="Architectures"/>.
    /// </summary>
    /// <summary>postgres-patroni's name (its servers in script/services, its health check, its architecture).</summary>
    public const string PatroniName = "postgres-patroni";

    /// <summary>postgres-patroni-sync's.</summary>
    public const string PatroniSyncName = "postgres-patroni-sync";

    public static IServiceCollection AddPostgres(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<PostgresOptions>().BindConfiguration("Postgres").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => CreateDataSource(sp.GetRequiredService<IOptions<PostgresOptions>>().Value));
        services.AddSingleton<PostgresDatabase>();
        services.AddSingleton<PostgresAuthorStore>();
        services.AddSingleton<PostgresItemStore>();
        services.AddSingleton<PostgresQueueStore>();
        services.AddSingleton<PostgresKvStore>();
        services.AddSingleton<ILocationCatalog, PostgresLocationCatalog>();
        services.AddSingleton<IItemDataLoader, PostgresItemDataLoader>();
        services.AddHealthChecks().AddBackend<PostgresHealthCheck>(BackendName);
        services.AddSingleton<IHostedService>(sp => new PostgresSchemaInitializer(sp.GetRequiredService<PostgresDatabase>(),
            sp.GetRequiredService<IOptions<PostgresOptions>>().Value.WarmConnections, sp.GetRequiredService<ILogger<PostgresSchemaInitializer>>()));
        if (!string.IsNullOrEmpty(configuration["Postgres:Patroni"])) AddPatroni(services, PatroniName, o => o.Patroni!);
        if (!string.IsNullOrEmpty(configuration["Postgres:PatroniSync"])) AddPatroni(services, PatroniSyncName, o => o.PatroniSync!);
        return services;
    }

    /// <summary>
    /// A Patroni topology's database (keyed <paramref name="name"/>): a data source over every node that finds the
    /// primary (Npgsql's multiple hosts with Target Session Attributes=primary), its key-value store, schema and health check.
    /// </summary>
    private static void AddPatroni(IServiceCollection services, string name, Func<PostgresOptions, string> connectionString)
    {
        services.AddKeyedSingleton(name, (sp, _) =>
        {
            var options = sp.GetRequiredService<IOptions<PostgresOptions>>();
            var settings = connectionString(options.Value);
            // Npgsql multiplexes on one host only.
            return new PostgresDatabase(CreateDataSource(options.Value, settings, multiplexing: false, PatroniWarmConnections(options.Value)), options, name, settings);
        });
        services.AddKeyedSingleton(name, (sp, _) => new PostgresKvStore(sp.GetRequiredKeyedService<PostgresDatabase>(name)));
        services.AddHealthChecks().AddBackend(name, sp => new PostgresHealthCheck(sp.GetRequiredKeyedService<PostgresDatabase>(name)));
        services.AddSingleton<IHostedService>(sp => new PostgresSchemaInitializer(sp.GetRequiredKeyedService<PostgresDatabase>(name),
            PatroniWarmConnections(sp.GetRequiredService<IOptions<PostgresOptions>>().Value), sp.GetRequiredService<ILogger<PostgresSchemaInitializer>>()));
    }

    /// <summary>
    /// At most 2: without multiplexing every open connection is a backend on the primary, and the test suites' many
    /// service hosts ran the nodes out of them ("too many clients").
    /// </summary>
    private static int PatroniWarmConnections(PostgresOptions options) => Math.Min(2, options.WarmConnections);

    /// <summary>
    /// One data source for the process. Repeated SQL is prepared automatically (that works with
    /// multiplexing too); connects have a timeout, and <see cref="PostgresDatabase"/> puts one on
    /// every call.
    /// </summary>
    private static NpgsqlDataSource CreateDataSource(PostgresOptions options) =>
        CreateDataSource(options, options.ConnectionString, options.Multiplexing, options.WarmConnections);

    private static NpgsqlDataSource CreateDataSource(PostgresOptions options, string settings, bool multiplexing, int warmConnections)
    {
        var connectionString = new NpgsqlConnectionStringBuilder(settings)
        {
            Pooling = true,
            Multiplexing = multiplexing,
            MaxPoolSize = options.MaxPoolSize,
            MinPoolSize = Math.Min(warmConnections, options.MaxPoolSize),
            Timeout = options.ConnectTimeoutSeconds,
            CommandTimeout = options.CommandTimeoutSeconds,
            MaxAutoPrepare = 32,
            AutoPrepareMinUsages = 2,
            NoResetOnClose = true,
            ApplicationName = "IntegrationService",
        };
        return new NpgsqlDataSourceBuilder(connectionString.ConnectionString).Build();
    }
}
