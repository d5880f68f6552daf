using IntegrationService.Items;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Items as {item_id, [location ids]} tuples (the items_* format in init.lua).</summary>
internal readonly record struct ItemBatch(ItemLinks[] Items, int Start, int Count) : ITupleBatch
{
    public void Write(ref MessagePackWriter writer)
    {
        writer.WriteArrayHeader(Count);
        foreach (var item in Items.AsSpan(Start, Count))
        {
            writer.WriteArrayHeader(2);
            writer.Write(item.ItemId);
            writer.WriteArrayHeader(item.LocationIds.Length);
            foreach (var id in item.LocationIds) writer.Write(id);
        }
    }
}
