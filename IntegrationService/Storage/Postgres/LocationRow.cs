using IntegrationService.Items;

namespace IntegrationService.Storage.Postgres;

/// <summary>A location as a flat row (the point split into x and y by the query).</summary>
internal sealed record LocationRow(long Id, string Text, double X, double Y)
{
    public Location ToLocation() => new(Id, Text, new Coordinates(X, Y));
}
