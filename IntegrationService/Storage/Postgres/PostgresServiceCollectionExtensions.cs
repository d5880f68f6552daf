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
    public static IServiceCollection AddPostgres(this IServiceCollection services)
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
        services.AddHostedService<PostgresSchemaInitializer>();
        return services;
    }

    /// <summary>
    /// One data source for the process. Repeated SQL is prepared automatically (that works with
    /// multiplexing too); connects have a timeout, and <see cref="PostgresDatabase"/> puts one on
    /// every call.
    /// </summary>
    private static NpgsqlDataSource CreateDataSource(PostgresOptions options)
    {
        var connectionString = new NpgsqlConnectionStringBuilder(options.ConnectionString)
        {
            Pooling = true,
            Multiplexing = options.Multiplexing,
            MaxPoolSize = options.MaxPoolSize,
            MinPoolSize = Math.Min(options.WarmConnections, options.MaxPoolSize),
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
