using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Settling;

namespace Notifications.UnitTests.Consumer;

public sealed class DeadLetterKeyTests
{
    private static readonly byte[] Body = "{\"id\":7}"u8.ToArray();

    [Fact]
    public void For_SameMessageAndAttempt_SameKey()
    {
        Assert.Equal(DeadLetterKey.For(7, new("m-1", null, null), Body, null, 2), DeadLetterKey.For(7, new("m-1", null, null), Body, null, 2));
        Assert.Equal(DeadLetterKey.For(null, new("m-1", null, null), Body, null, 1), DeadLetterKey.For(null, new("m-1", null, null), Body, null, 1));
        Assert.Equal(DeadLetterKey.For(null, new(null, null, null), [1, 2, 3], 4, 1), DeadLetterKey.For(null, new(null, null, null), [1, 2, 3], 4, 1));
    }

    [Fact]
    public void For_NotificationId_NamesTheAttemptWhateverTheEnvelope()
    {
        // An item of a redelivered envelope, or the same notification returned on its own with the same attempt.
        Assert.Equal(DeadLetterKey.For(7, new("envelope-1", null, null), Body, 3, 1), DeadLetterKey.For(7, new(null, null, null), Body, null, 1));
    }

    [Fact]
    public void For_OtherAttemptOrOtherMessage_OtherKey()
    {
        var key = DeadLetterKey.For(7, new("m-1", null, null), Body, null, 1);

        Assert.NotEqual(key, DeadLetterKey.For(7, new("m-1", null, null), Body, null, 2));
        Assert.NotEqual(key, DeadLetterKey.For(8, new("m-1", null, null), Body, null, 1));
        Assert.NotEqual(DeadLetterKey.For(null, new("m-1", null, null), Body, null, 1), DeadLetterKey.For(null, new("m-2", null, null), Body, null, 1));
        Assert.NotEqual(DeadLetterKey.For(null, new(null, null, null), [1], null, 1), DeadLetterKey.For(null, new(null, null, null), [2], null, 1));
        // Two id-less items of one envelope (same message id, maybe the same bytes) are told apart by their place.
        Assert.NotEqual(DeadLetterKey.For(null, new("e-1", null, null), [1], 0, 1), DeadLetterKey.For(null, new("e-1", null, null), [1], 1, 1));
    }

    [Fact]
    public void For_IdLessSameBytesOtherContentTypeOrType_OtherKey()
    {
        // The properties say how the bytes were read, so the same bytes under others are another message with another reason.
        var json = IdLess("application/json", null);

        Assert.NotEqual(DeadLetterKey.For(json), DeadLetterKey.For(IdLess("text/xml", null)));
        Assert.NotEqual(DeadLetterKey.For(json), DeadLetterKey.For(IdLess("application/json", "sms.v1")));
        Assert.NotEqual(DeadLetterKey.For(json with { MessageId = "m-1" }), DeadLetterKey.For(IdLess("text/xml", null) with { MessageId = "m-1" }));
        Assert.Equal(DeadLetterKey.For(json), DeadLetterKey.For(json with { Redelivered = true }));
    }

    [Fact]
    public void For_RequeuedFromTheDeadQueue_NewSeriesOfKeysStableForItsCopies()
    {
        var first = Delivery(null);
        var requeued = Delivery(new Dictionary<string, object?> { ["x-requeued-at"] = 1_764_000_000_000L });

        Assert.Equal(DeadLetterKey.For(7, new("m-1", null, null), Body, null, 1), DeadLetterKey.For(first));
        Assert.NotEqual(DeadLetterKey.For(first), DeadLetterKey.For(requeued));
        Assert.Equal(DeadLetterKey.For(requeued), DeadLetterKey.For(requeued with { Redelivered = true }));
    }

    [Fact]
    public void For_AnyMessage_VersionEightRfcVariant()
    {
        string text = DeadLetterKey.For(7, new(null, null, null), Body, null, 1).ToString();

        Assert.Equal('8', text[14]);
        Assert.Contains(text[19], "89ab");
    }

    private static Delivery IdLess(string? contentType, string? type) =>
        new(null!, 1, 0, "<xml/>"u8.ToArray(), contentType, type, 1, false, null, default);

    private static Delivery Delivery(Dictionary<string, object?>? headers) =>
        new(null!, 1, 0, Body, "application/json", null, 1, false, headers, default) { MessageId = "m-1" };
}
