// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {FixedPointMathLib} from "solady/src/utils/FixedPointMathLib.sol";
import {OutcomeToken} from "../tokens/OutcomeToken.sol";
import {ILmsrMarket} from "./ILmsrMarket.sol";

/// @notice What a market asks of the factory that made it.
interface ILmsrFactoryView {
    /// @notice Whether `account` may resolve or void markets.
    function isResolver(address account) external view returns (bool);
    /// @notice Where fees go.
    function treasury() external view returns (address);
}

/// @title LmsrMarket
/// @notice A logarithmic market scoring rule market maker with 2 or 3 outcomes. One share of the winning outcome
/// redeems for one base unit of collateral. Cost C(q) = b * ln(sum_i exp(q_i / b)); b = seed / ln(n), so the
/// worst-case loss of the market maker (the creator's seed) is at most the seed. Fixed point is WAD (solady);
/// every result rounds in the market's favour: buy cost rounds up and sell proceeds round down, each with one extra
/// base unit of margin that covers the error of expWad/lnWad.
contract LmsrMarket is ILmsrMarket, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;
    uint256 private constant BPS = 10_000;

    /// @notice The factory that made the market.
    address public immutable factory;
    /// @notice The shared ERC-1155 of outcome tokens.
    OutcomeToken public immutable outcomeToken;
    /// @notice The ERC-20 collateral.
    IERC20 public immutable collateral;
    /// @notice The creator, who paid the seed and may withdraw the surplus after settlement.
    address public immutable creator;
    /// @notice Number of outcomes (2 or 3).
    uint8 public immutable outcomeCount;
    /// @notice Liquidity parameter in collateral base units.
    uint256 public immutable b;
    /// @notice The creator's seed in collateral base units.
    uint256 public immutable seed;
    /// @notice Fee on buys in basis points (always 0).
    uint16 public constant buyFeeBps = 0;
    /// @notice Fee on sell proceeds in basis points, stamped at creation.
    uint16 public immutable sellExitFeeBps;
    /// @notice Fee on redeemed winnings in basis points, stamped at creation.
    uint16 public immutable winningsExitFeeBps;
    /// @notice Trading stops at this unix time; resolution to an outcome is possible from then on.
    uint64 public immutable closeTime;

    /// @notice Market id in the OutcomeToken (set once by the factory).
    uint256 public marketId;
    /// @notice Outstanding shares per outcome.
    uint256[] private _q;
    /// @notice 0 open, 1 resolved, 2 voided.
    uint8 public state;
    /// @notice The winning outcome once resolved.
    uint8 public winningOutcome;

    constructor(
        address creator_,
        IERC20 collateral_,
        OutcomeToken outcomeToken_,
        uint8 outcomeCount_,
        uint256 seed_,
        uint64 closeTime_,
        uint16 sellExitFeeBps_,
        uint16 winningsExitFeeBps_
    ) {
        factory = msg.sender;
        creator = creator_;
        collateral = collateral_;
        outcomeToken = outcomeToken_;
        outcomeCount = outcomeCount_;
        seed = seed_;
        closeTime = closeTime_;
        sellExitFeeBps = sellExitFeeBps_;
        winningsExitFeeBps = winningsExitFeeBps_;
        b = (seed_ * WAD) / uint256(FixedPointMathLib.lnWad(int256(uint256(outcomeCount_) * WAD)));
        _q = new uint256[](outcomeCount_);
    }

    /// @notice Sets the market id once. Only the factory.
    function initialize(uint256 marketId_) external {
        if (msg.sender != factory || marketId != 0) revert LmsrNotFactory(msg.sender);
        marketId = marketId_;
    }

    /// @notice Outstanding shares of every outcome.
    function outstanding() external view returns (uint256[] memory) {
        return _q;
    }

    /// @notice Instantaneous prices in WAD (they sum to 1e18 within a few wei).
    function prices() external view returns (uint256[] memory p) {
        (int256[] memory e, int256 sum,) = _exps(_q);
        p = new uint256[](e.length);
        for (uint256 i; i < e.length; ++i) p[i] = (uint256(e[i]) * WAD) / uint256(sum);
    }

    /// @notice Cost (rounded up, fee included) of buying `shares` of `outcome` now.
    function quoteBuy(uint8 outcome, uint256 shares) public view returns (uint256 cost) {
        _checkOutcome(outcome);
        uint256[] memory q = _q;
        uint256 before = _costWad(q);
        q[outcome] += shares;
        cost = _ceilDiv(_costWad(q) - before, WAD) + 1;
    }

    /// @notice Net proceeds (rounded down) and fee of selling `shares` of `outcome` now.
    function quoteSell(uint8 outcome, uint256 shares) public view returns (uint256 proceeds, uint256 fee) {
        _checkOutcome(outcome);
        uint256[] memory q = _q;
        uint256 before = _costWad(q);
        q[outcome] -= shares;
        uint256 gross = (before - _costWad(q)) / WAD;
        gross = gross > 0 ? gross - 1 : 0;
        fee = _ceilDiv(gross * sellExitFeeBps, BPS);
        proceeds = gross - fee;
    }

    /// @notice Buys `shares` of `outcome` for at most `maxCost`, paid by the caller, minted to `recipient`.
    function buy(uint8 outcome, uint256 shares, uint256 maxCost, address recipient) external nonReentrant returns (uint256 cost) {
        _checkOpen();
        if (shares == 0) revert LmsrZeroShares();
        cost = quoteBuy(outcome, shares);
        if (cost > maxCost) revert LmsrCostAboveLimit(cost, maxCost);
        _q[outcome] += shares;
        collateral.safeTransferFrom(msg.sender, address(this), cost);
        outcomeToken.mint(recipient, marketId, outcome, shares);
        emit Trade(msg.sender, outcome, true, shares, cost, 0, recipient, _q);
    }

    /// @notice Sells `shares` of `outcome` held by the caller for at least `minProceeds`, paid to `recipient`.
    function sell(uint8 outcome, uint256 shares, uint256 minProceeds, address recipient) external nonReentrant returns (uint256 proceeds) {
        _checkOpen();
        if (shares == 0) revert LmsrZeroShares();
        uint256 fee;
        (proceeds, fee) = quoteSell(outcome, shares);
        if (proceeds < minProceeds) revert LmsrProceedsBelowLimit(proceeds, minProceeds);
        _q[outcome] -= shares;
        outcomeToken.burn(msg.sender, marketId, outcome, shares);
        if (fee > 0) collateral.safeTransfer(ILmsrFactoryView(factory).treasury(), fee);
        collateral.safeTransfer(recipient, proceeds);
        emit Trade(msg.sender, outcome, false, shares, proceeds, fee, recipient, _q);
    }

    /// @notice Declares `outcome` the winner. Only a resolver of the factory, from closeTime on.
    function resolve(uint8 outcome) external {
        _checkResolver();
        _checkOutcome(outcome);
        if (block.timestamp < closeTime) revert LmsrNotClosed(closeTime, block.timestamp);
        state = 1;
        winningOutcome = outcome;
        emit Resolved(outcome, msg.sender);
    }

    /// @notice Voids the market (any time). Only a resolver of the factory.
    function voidMarket() external {
        _checkResolver();
        state = 2;
        emit Voided(msg.sender);
    }

    /// @notice Redeems the caller's shares of `outcome`: the winner pays 1 unit per share less the winnings exit
    /// fee; after a void every share pays 1/outcomeCount unit (rounded down, no fee); a losing outcome pays 0.
    function redeem(uint8 outcome) external nonReentrant returns (uint256 payout) {
        if (state == 0) revert LmsrNotSettled();
        _checkOutcome(outcome);
        uint256 shares = _sharesOf(msg.sender, outcome);
        if (shares == 0) revert LmsrZeroShares();
        uint256 fee;
        (payout, fee) = _redeemOutcome(msg.sender, outcome, shares);
        _pay(msg.sender, payout, fee);
    }

    /// @notice Redeems every outcome `holder` holds, in one transaction, paying `holder` exactly what
    /// `previewClaim(holder)` showed (one Redeemed event per outcome held). The caller is `holder` or an operator
    /// `holder` approved on the OutcomeToken (`setApprovalForAll`): such an operator could already move the shares
    /// to itself, so redeeming them to the holder grants it nothing more. Money only ever reaches `holder`.
    function redeemAll(address holder) external nonReentrant returns (uint256 payout, uint256 fee) {
        if (state == 0) revert LmsrNotSettled();
        if (holder != msg.sender && !outcomeToken.isApprovedForAll(holder, msg.sender)) {
            revert LmsrNotHolderOrOperator(msg.sender, holder);
        }
        bool held;
        for (uint8 i; i < outcomeCount; ++i) {
            uint256 shares = _sharesOf(holder, i);
            if (shares == 0) continue;
            held = true;
            (uint256 p, uint256 f) = _redeemOutcome(holder, i, shares);
            payout += p;
            fee += f;
        }
        if (!held) revert LmsrZeroShares();
        _pay(holder, payout, fee);
    }

    /// @notice What redeeming every outcome `holder` holds would pay now: `payout` to the holder and `fee` to the
    /// treasury. (0, 0) while open. Resolved: winning shares less the winnings exit fee (rounded up), losing shares 0.
    /// Voided: floor(shares / outcomeCount) per outcome held, no fee. Rounded exactly as `redeem` and `redeemAll`.
    function previewClaim(address holder) external view returns (uint256 payout, uint256 fee) {
        if (state == 0) return (0, 0);
        for (uint8 i; i < outcomeCount; ++i) {
            (uint256 p, uint256 f) = _claimOf(i, _sharesOf(holder, i));
            payout += p;
            fee += f;
        }
    }

    /// @notice What `withdrawSurplus` would send the creator now: the collateral not reserved for the redemptions
    /// still outstanding (0 while open).
    function surplus() public view returns (uint256) {
        if (state == 0) return 0;
        uint256 reserved;
        if (state == 1) {
            reserved = _q[winningOutcome];
        } else {
            // Σ_holders floor(s / n) ≤ floor(Σ s / n) = floor(q_i / n): this covers every void redemption of outcome i.
            for (uint256 i; i < _q.length; ++i) reserved += _q[i] / outcomeCount;
        }
        uint256 balance = collateral.balanceOf(address(this));
        return balance > reserved ? balance - reserved : 0;
    }

    /// @notice After settlement, sends the creator everything not reserved for outstanding redemptions (the sweep
    /// of the creator's residual). Anyone may call it (the service submits it and pays the gas); the money only ever
    /// goes to the creator. It can be called again: what later redemptions leave over (rounding) follows the same way.
    /// Emits SurplusWithdrawn only when something was sent.
    function withdrawSurplus() external nonReentrant returns (uint256 amount) {
        if (state == 0) revert LmsrNotSettled();
        amount = surplus();
        if (amount > 0) {
            collateral.safeTransfer(creator, amount);
            emit SurplusWithdrawn(creator, amount);
        }
    }

    /// @dev Burns `holder`'s `shares` of `outcome`, lowers its outstanding count and emits Redeemed. The caller pays.
    function _redeemOutcome(address holder, uint8 outcome, uint256 shares) private returns (uint256 payout, uint256 fee) {
        outcomeToken.burn(holder, marketId, outcome, shares);
        _q[outcome] -= shares;
        (payout, fee) = _claimOf(outcome, shares);
        emit Redeemed(holder, outcome, shares, payout, fee);
    }

    /// @dev Payout and fee of `shares` of `outcome` in the settled state (the one rounding rule of every claim).
    function _claimOf(uint8 outcome, uint256 shares) private view returns (uint256 payout, uint256 fee) {
        if (state == 2) {
            payout = shares / outcomeCount;
        } else if (outcome == winningOutcome) {
            fee = _ceilDiv(shares * winningsExitFeeBps, BPS);
            payout = shares - fee;
        }
    }

    /// @dev Sends the fee to the factory's treasury and the payout to `to`.
    function _pay(address to, uint256 payout, uint256 fee) private {
        if (fee > 0) collateral.safeTransfer(ILmsrFactoryView(factory).treasury(), fee);
        if (payout > 0) collateral.safeTransfer(to, payout);
    }

    function _sharesOf(address holder, uint8 outcome) private view returns (uint256) {
        return outcomeToken.balanceOf(holder, outcomeToken.tokenId(marketId, outcome));
    }

    /// @dev C(q) scaled by WAD (base units * 1e18), via log-sum-exp around the largest exponent.
    function _costWad(uint256[] memory q) private view returns (uint256) {
        (, int256 sum, int256 m) = _exps(q);
        return b * uint256(m + FixedPointMathLib.lnWad(sum));
    }

    /// @dev exp(q_i/b - max) in WAD, their sum, and the max exponent q_i/b in WAD.
    function _exps(uint256[] memory q) private view returns (int256[] memory e, int256 sum, int256 m) {
        e = new int256[](q.length);
        int256[] memory x = new int256[](q.length);
        for (uint256 i; i < q.length; ++i) {
            x[i] = int256((q[i] * WAD) / b);
            if (x[i] > m) m = x[i];
        }
        for (uint256 i; i < q.length; ++i) {
            e[i] = FixedPointMathLib.expWad(x[i] - m);
            sum += e[i];
        }
    }

    function _checkOutcome(uint8 outcome) private view {
        if (outcome >= outcomeCount) revert LmsrInvalidOutcome(outcome);
    }

    function _checkOpen() private view {
        if (block.timestamp >= closeTime || state != 0) revert LmsrMarketClosed(closeTime, block.timestamp);
    }

    function _checkResolver() private view {
        if (!ILmsrFactoryView(factory).isResolver(msg.sender)) revert LmsrNotResolver(msg.sender);
        if (state != 0) revert LmsrAlreadySettled();
    }

    function _ceilDiv(uint256 a, uint256 d) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / d + 1;
    }
}
