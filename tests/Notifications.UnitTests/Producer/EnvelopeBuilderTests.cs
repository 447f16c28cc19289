using Notifications.Producer;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Producer;

public sealed class EnvelopeBuilderTests
{
    private static (OutboxRow Row, byte[] Body) Row(long id)
    {
        var row = new OutboxRow { Id = id, Recipient = $"u{id}@example.com", Subject = "s", Body = "b", CreatedAt = DateTimeOffset.UnixEpoch };
        return (row, MessageSerializer.Serialize(row.ToMessage()));
    }

    [Fact]
    public void Take_OneRow_IsThePlainSingleNotificationMessage()
    {
        var builder = new EnvelopeBuilder(size: 50, maxBytes: 1 << 20);
        var (row, body) = Row(7);
        builder.Add("work", row, body, span: null);

        var (queue, taken, properties, spans) = builder.Take();

        Assert.Equal("work", queue);
        Assert.Equal(body, taken);
        Assert.Equal(MessageSerializer.MessageType, properties.Type);
        Assert.Equal("7", properties.MessageId);
        Assert.True(properties.Persistent);
        Assert.Empty(spans);
        Assert.True(builder.IsEmpty);
    }

    [Fact]
    public void Take_SeveralRows_IsAnEnvelopeOfTheirBodiesInOrder()
    {
        var builder = new EnvelopeBuilder(size: 50, maxBytes: 1 << 20);
        var rows = Enumerable.Range(1, 3).Select(i => Row(i)).ToList();
        rows.ForEach(r => builder.Add("work", r.Row, r.Body, span: null));

        var (_, taken, properties, _) = builder.Take();

        Assert.Equal(EnvelopeSerializer.EnvelopeType, properties.Type);
        Assert.Equal(MessageSerializer.ContentType, properties.ContentType);
        Assert.True(EnvelopeSerializer.TryUnpack(taken, out var items, out _));
        Assert.Equal([1L, 2L, 3L], items.Select(i => i.Message!.Id));
    }

    [Fact]
    public void Fits_StopsAtTheSizeTheQueueOrTheByteLimit()
    {
        var (row, body) = Row(1);
        var bySize = new EnvelopeBuilder(size: 2, maxBytes: 1 << 20);
        Assert.True(bySize.Fits("work", body));
        bySize.Add("work", row, body, null);
        Assert.True(bySize.Fits("work", body));
        Assert.False(bySize.Fits("work.urgent", body));
        bySize.Add("work", row, body, null);
        Assert.False(bySize.Fits("work", body));

        var byBytes = new EnvelopeBuilder(size: 100, maxBytes: (2 * body.Length) + 3);
        byBytes.Add("work", row, body, null);
        Assert.True(byBytes.Fits("work", body));
        byBytes.Add("work", row, body, null);
        Assert.False(byBytes.Fits("work", body));
        Assert.Equal((2 * body.Length) + 3, byBytes.Take().Body.Length);
    }

    [Fact]
    public void Fits_EmptyBuilder_TakesEvenARowOverTheByteLimit()
    {
        var (_, body) = Row(1);

        Assert.True(new EnvelopeBuilder(size: 10, maxBytes: 10).Fits("work", body));
    }
}
