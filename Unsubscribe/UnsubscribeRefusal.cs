using Microsoft.AspNetCore.Http;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Unsubscribe;

/// <summary>A request the server does not act on: its status, the outcome it is counted and logged as, and what the page tells the person.</summary>
internal sealed record UnsubscribeRefusal(int Status, string Outcome, string Title, string Message)
{
    public static readonly UnsubscribeRefusal NotOneClick = new(StatusCodes.Status400BadRequest, "bad_request", "Nothing was changed",
        "This request did not ask to unsubscribe (the form List-Unsubscribe=One-Click). Open the link from the mail and press the button.");

    public static readonly UnsubscribeRefusal NotRecorded = new(StatusCodes.Status503ServiceUnavailable, "not_recorded", "Please try again",
        "Your request could not be recorded just now. Nothing was changed; please try again in a few minutes.");

    private static readonly UnsubscribeRefusal Malformed = new(StatusCodes.Status400BadRequest, "malformed", "This link is incomplete",
        "The address of this page is not a whole unsubscribe link; it may have been cut when it was copied. Use the link in the mail itself.");

    private static readonly UnsubscribeRefusal NotGenuine = new(StatusCodes.Status403Forbidden, "forged", "This link is not valid",
        "This unsubscribe link was altered or is not one of ours. Nothing was changed. Use the link in the mail itself.");

    private static readonly UnsubscribeRefusal Expired = new(StatusCodes.Status410Gone, "expired", "This link has expired",
        "Unsubscribe links are honoured for a limited time after the mail was sent. Nothing was changed; use the link in a recent mail.");

    /// <summary>A link of the first, readable format while old links are no longer honoured.</summary>
    public static readonly UnsubscribeRefusal Legacy = new(StatusCodes.Status410Gone, "legacy", "This link is too old",
        "This unsubscribe link comes from a mail sent before our links changed and no longer works. Nothing was changed; "
        + "use the link in a recent mail, or reply to the mail asking to be unsubscribed.");

    public static UnsubscribeRefusal For(UnsubscribeTokenOutcome outcome) => outcome switch
    {
        UnsubscribeTokenOutcome.Forged => NotGenuine,
        // A key no longer in the ring (retired after its rotation window) or a made-up one: not genuine to us either way.
        UnsubscribeTokenOutcome.UnknownKey => NotGenuine with { Outcome = "unknown_key" },
        UnsubscribeTokenOutcome.Expired => Expired,
        _ => Malformed,
    };
}
