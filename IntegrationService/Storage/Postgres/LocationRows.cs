using IntegrationService.Items;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>Reads locations (<c>location_id, location, coordinates</c>, in that order) from a result set.</summary>
internal static class LocationRows
{
    public static async Task<IReadOnlyList<Location>> ReadAllAsync(NpgsqlCommand command)
    {
        await using var reader = await command.ExecuteReaderAsync();
        if (!await reader.ReadAsync()) return [];
        var locations = new List<Location>(8);
        do
        {
            var point = reader.GetFieldValue<NpgsqlPoint>(2);
            locations.Add(new Location(reader.GetInt64(0), reader.GetString(1), new Coordinates(point.X, point.Y)));
        }
        while (await reader.ReadAsync());
        return locations;
    }
}
