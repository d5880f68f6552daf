using System.Reflection;

namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>
/// Writes and reads a <see cref="MsgPackArrayAttribute"/> class as a MessagePack array. The
/// per-property accessors are built once, when the type is first used, so no reflection runs per call.
/// Gaps between element indices are written as nil; on reading, missing trailing elements keep
/// their defaults (Tarantool may omit trailing nullable fields) and extra ones are skipped.
/// </summary>
public static class MsgPackArrayMapper<T> where T : class, new()
{
    private static readonly MsgPackArrayField<T>?[] Fields = BuildFields();

    public static void Write(ref MsgPackWriter writer, T value)
    {
        writer.WriteArrayHeader(Fields.Length);
        foreach (var field in Fields)
        {
            if (field is null) writer.WriteNil();
            else field.Write(ref writer, value);
        }
    }

    /// <summary>The array length written: the highest element index plus one.</summary>
    public static int ElementCount => Fields.Length;

    /// <summary>Writes one element alone (e.g. the value of an update operation).</summary>
    public static void WriteElement(ref MsgPackWriter writer, T value, int index)
    {
        if (Fields[index] is { } field) field.Write(ref writer, value);
        else writer.WriteNil();
    }

    public static T Read(ref MsgPackReader reader)
    {
        var value = new T();
        var count = reader.ReadArrayHeader();
        for (var i = 0; i < count; i++)
        {
            var field = i < Fields.Length ? Fields[i] : null;
            if (field is null) reader.Skip();
            else field.Read(ref reader, value);
        }
        return value;
    }

    private static MsgPackArrayField<T>?[] BuildFields()
    {
        if (typeof(T).GetCustomAttribute<MsgPackArrayAttribute>() is null)
        {
            throw new NotSupportedException($"{typeof(T)} is not marked [MsgPackArray].");
        }
        var mapped = typeof(T).GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Select(p => (Property: p, Element: p.GetCustomAttribute<MsgPackArrayElementAttribute>()))
            .Where(p => p.Element is not null)
            .ToList();
        if (mapped.Count == 0) throw new NotSupportedException($"{typeof(T)} has no [MsgPackArrayElement] properties.");

        var fields = new MsgPackArrayField<T>?[mapped.Max(p => p.Element!.Index) + 1];
        foreach (var (property, element) in mapped)
        {
            if (element!.Index < 0 || fields[element.Index] is not null)
            {
                throw new NotSupportedException($"{typeof(T)}.{property.Name}: index {element.Index} is negative or used twice.");
            }
            var fieldType = typeof(MsgPackArrayField<,>).MakeGenericType(typeof(T), property.PropertyType);
            fields[element.Index] = (MsgPackArrayField<T>)Activator.CreateInstance(fieldType, property)!;
        }
        return fields;
    }
}
