using IntegrationService.Authors;
using IntegrationService.Http;
using IntegrationService.Items;
using IntegrationService.Kv;
using IntegrationService.Kv.Cluster;
using IntegrationService.Monitoring;
using IntegrationService.Queues;
using IntegrationService.Storage;
using IntegrationService.Storage.Beanstalkd;
using IntegrationService.Storage.Limits;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IntegrationService;

/// <summary>The service's registrations, read top to bottom like a table of contents.</summary>
public static class Extensions
{
    /// <summary>
    /// Every storage technology, the architectures composed from them, and the registry that selects
    /// among them; their default endpoints, below every other configuration source, are the user's
    /// servers of infra/config/ports.txt when the service runs from a checkout (<see cref="PortTableConfiguration"/>).
    /// </summary>
    public static IHostApplicationBuilder AddStorage(this IHostApplicationBuilder builder)
    {
        builder.Configuration.AddPortTableDefaults();
        builder.Services.AddOptions<StorageOptions>().BindConfiguration("Storage").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<KvOptions>().BindConfiguration("Kv").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<ClusterOptions>().BindConfiguration("Cluster").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddPostgres(builder.Configuration);
        builder.Services.AddRedis(builder.Configuration);
        builder.Services.AddTarantool();
        builder.Services.AddBeanstalkd();
        builder.Services.AddRabbitMq(builder.Configuration);
        builder.Services.AddNats(builder.Configuration);
        builder.Services.AddArchitectures(builder.Configuration);
        builder.Services.AddSingleton<BackendLimiter>();
        builder.Services.AddSingleton<StorageRegistry>();
        return builder;
    }

    /// <summary>JSON, ProblemDetails, health checks, Swagger, and the key-value API's cluster membership (a web node's, not the tools').</summary>
    public static IHostApplicationBuilder AddApi(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton<KvCluster>();
        builder.Services.AddHostedService<KvPeerWarmup>();
        // On a cluster node its HTTP port also takes the other nodes' hop connections (KvPeerServer).
        builder.Services.AddSingleton<KvPeerServer>();
        builder.Services.AddOptions<KestrelServerOptions>().Configure<IOptions<ClusterOptions>>((kestrel, cluster) => KvPeerServer.Install(kestrel, cluster.Value));
        // Kestrel's limits: body size → 413, header size and count → 431, request line → 414, and the
        // time a client gets to send its headers (a slow client is cut off). A body sent slower than
        // 240 bytes/s after a 5 s grace is cut off too (Kestrel's default, kept). The largest valid
        // body (an author of 256-character strings, an item of 1000 location ids) is under 16 KiB.
        // Each can be overridden in configuration: Kestrel:Limits:MaxRequestBodySize and so on.
        builder.Services.Configure<KestrelServerOptions>(options =>
        {
            options.AddServerHeader = false;
            options.Limits.MaxRequestBodySize = 64 * 1024;
            options.Limits.MaxRequestHeadersTotalSize = 16 * 1024;
            options.Limits.MaxRequestHeaderCount = 64;
            options.Limits.MaxRequestLineSize = 8 * 1024;
            options.Limits.RequestHeadersTimeout = TimeSpan.FromSeconds(10);
        });
        builder.Services.Configure<KestrelServerOptions>(builder.Configuration.GetSection("Kestrel"));
        builder.Services.AddProblemDetails();
        builder.Services.AddExceptionHandler<ProblemExceptionHandler>();
        builder.Services.ConfigureHttpJsonOptions(options =>
            options.SerializerOptions.TypeInfoResolverChain.Insert(0, ApiJsonContext.Default));
        builder.Services.AddHealthChecks();
        builder.Services.AddSingleton<ReadinessScope>();
        builder.Services.AddEndpointsApiExplorer();
        builder.Services.AddSwaggerGen(options =>
        {
            options.SwaggerDoc("v1", new() { Title = "IntegrationService", Version = "v1", Description = "One CRUD API over several storage architectures; choose one per request with ?storage=." });
            options.OperationFilter<StorageParameterFilter>();
            options.OperationFilter<IntegerParameterFilter>();
            options.CustomOperationIds(OperationIds.Of);
        });
        // Request logging on the hot path costs throughput; warnings and errors still appear.
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
        // While any level of this category is on, hosting creates an Activity and a log scope for
        // every request, whether or not anything is logged; it logs nothing above Information.
        builder.Logging.AddFilter("Microsoft.AspNetCore.Hosting.Diagnostics", LogLevel.None);
        return builder;
    }

    public static WebApplication MapApi(this WebApplication app)
    {
        app.UseRequestMetrics();
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        // Swagger's middleware would inspect every request's path; only /swagger requests go through it.
        app.UseWhen(context => context.Request.Path.StartsWithSegments("/swagger"), swagger =>
        {
            swagger.UseSwagger();
            swagger.UseSwaggerUI();
        });
        app.UseMiddleware<SingleStorageParameter>();
        AuthorEndpoints.Map(app);
        ItemEndpoints.Map(app);
        QueueEndpoints.Map(app);
        KvEndpoints.Map(app);
        var scope = app.Services.GetRequiredService<ReadinessScope>();
        var ready = new HealthCheckOptions { Predicate = scope.Includes, ResponseWriter = HealthResponseWriter.WriteAsync };
        app.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false }).WithTags("Service")
            .WithSummary("200 \"Healthy\" while the process serves requests; touches no backend (for liveness probes).");
        app.MapHealthChecks("/health/ready", ready).WithTags("Service")
            .WithSummary("Each backend the node's architectures use pinged (2 s timeout; Storage:ReadyArchitectures) and each of those architectures' state (ready, degraded, down); 503 when a required backend is down.");
        app.MapHealthChecks("/health", ready).WithTags("Service")
            .WithSummary("The same as /health/ready (kept for compatibility).");
        app.MapGet("/storages", StoragesEndpoint.Handle).WithName("Storages").WithTags("Service")
            .WithSummary("The storage architectures, what each serves and its durability settings.");
        app.MapServiceMetrics();
        app.MapGet("/", () => Results.Redirect("/swagger")).ExcludeFromDescription();
        return app;
    }
}
