// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ILmsrMarket
/// @notice Events and errors of an on-chain LMSR market (binary or ternary).
interface ILmsrMarket {
    /// @notice A buy or sell. `amount` is the cost paid (buy, fee included) or the net proceeds received (sell);
    /// `fee` went to the treasury; `outstanding` is every outcome's outstanding shares after the trade.
    event Trade(
        address indexed trader,
        uint8 indexed outcome,
        bool isBuy,
        uint256 shares,
        uint256 amount,
        uint256 fee,
        address recipient,
        uint256[] outstanding
    );
    /// @notice The resolver declared `outcome` the winner.
    event Resolved(uint8 indexed outcome, address indexed resolver);
    /// @notice The resolver voided the market; every share redeems at 1/outcomeCount.
    event Voided(address indexed resolver);
    /// @notice `account` redeemed `shares` of `outcome` for `payout` (net of `fee`).
    event Redeemed(address indexed account, uint8 indexed outcome, uint256 shares, uint256 payout, uint256 fee);
    /// @notice The creator was sent `amount`, what is left after every possible redemption is reserved.
    event SurplusWithdrawn(address indexed creator, uint256 amount);

    /// @notice The outcome index is not one of the market's outcomes.
    error LmsrInvalidOutcome(uint8 outcome);
    /// @notice Trading after closeTime or after resolution.
    error LmsrMarketClosed(uint64 closeTime, uint256 now_);
    /// @notice The buy would cost more than `maxCost`.
    error LmsrCostAboveLimit(uint256 cost, uint256 maxCost);
    /// @notice The sell would pay less than `minProceeds`.
    error LmsrProceedsBelowLimit(uint256 proceeds, uint256 minProceeds);
    /// @notice Zero shares.
    error LmsrZeroShares();
    /// @notice The caller is not a resolver of the factory.
    error LmsrNotResolver(address caller);
    /// @notice Resolution before closeTime.
    error LmsrNotClosed(uint64 closeTime, uint256 now_);
    /// @notice The market is already resolved or voided.
    error LmsrAlreadySettled();
    /// @notice Redemption or withdrawal before settlement.
    error LmsrNotSettled();
    /// @notice Only the factory may initialize; only once.
    error LmsrNotFactory(address caller);
    /// @notice `caller` is neither `holder` nor an operator `holder` approved on the OutcomeToken.
    error LmsrNotHolderOrOperator(address caller, address holder);
}
