using System.Text;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Contract;

public sealed class EnvelopeSerializerTests
{
    private static NotificationMessage Message(long id) =>
        new(id, $"user{id}@example.com", $"subject {id}", "body \"quoted\" ✓", id % 2 == 0, DateTimeOffset.UnixEpoch.AddSeconds(id), null);

    [Fact]
    public void Pack_ThenUnpack_GivesEachItemItsOwnBytesAndMessage()
    {
        var bodies = Enumerable.Range(1, 5).Select(i => MessageSerializer.Serialize(Message(i))).ToList();
        byte[] envelope = EnvelopeSerializer.Pack(bodies);

        Assert.Equal(EnvelopeSerializer.PackedLength(5, bodies.Sum(b => b.Length)), envelope.Length);
        Assert.True(EnvelopeSerializer.TryUnpack(envelope, out var items, out _));
        Assert.Equal(5, items.Count);
        for (int i = 0; i < 5; i++)
        {
            Assert.Equal(bodies[i], items[i].Body);
            Assert.Equal(Message(i + 1), items[i].Message);
            Assert.Null(items[i].Error);
        }
    }

    [Fact]
    public void Unpack_OneBadElement_OnlyThatItemCarriesAnError()
    {
        string good = Encoding.UTF8.GetString(MessageSerializer.Serialize(Message(1)));
        byte[] envelope = Encoding.UTF8.GetBytes($"[{good}, {{\"id\":\"not a number\"}}, 17, {good}]");

        Assert.True(EnvelopeSerializer.TryUnpack(envelope, out var items, out _));

        Assert.Equal(4, items.Count);
        Assert.NotNull(items[0].Message);
        Assert.Null(items[1].Message);
        Assert.StartsWith("undeserializable", items[1].Error, StringComparison.Ordinal);
        Assert.Equal("{\"id\":\"not a number\"}", Encoding.UTF8.GetString(items[1].Body));
        Assert.Equal("17", Encoding.UTF8.GetString(items[2].Body));
        Assert.NotNull(items[2].Error);
        Assert.Equal(Message(1), items[3].Message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("{\"id\":1}")]
    [InlineData("[{\"id\":1}")]
    [InlineData("[] trailing")]
    [InlineData("[{\"id\":1}] [")]
    [InlineData("[]")]
    [InlineData("\u00ff\u00fe")]
    public void Unpack_NotAnEnvelope_FalseWithReasonNoThrow(string body)
    {
        Assert.False(EnvelopeSerializer.TryUnpack(Encoding.Latin1.GetBytes(body), out var items, out string? error));

        Assert.Null(items);
        Assert.Contains("envelope", error, StringComparison.Ordinal);
    }
}
