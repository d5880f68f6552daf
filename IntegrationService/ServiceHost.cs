using IntegrationService.Http;
using IntegrationService.Monitoring;

namespace IntegrationService;

/// <summary>Builds the web application; shared by Program and the tests, which host it on a free port.</summary>
public static class ServiceHost
{
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        builder.AddStorage();
        builder.AddApi();
        builder.AddMetrics();

        var app = builder.Build();
        app.MapApi();
        return app;
    }
}
