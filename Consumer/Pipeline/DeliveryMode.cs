namespace Notifications.Consumer.Pipeline;

/// <summary>The admin's choice of what a failure may cost.</summary>
internal enum DeliveryMode
{
    /// <summary>Send, write the log, then ack. A crash may send a notification twice, never lose it.</summary>
    AtLeastOnce,

    /// <summary>Mark in the log and ack, then send. A crash may lose a notification, never send it twice.</summary>
    AtMostOnce,
}
